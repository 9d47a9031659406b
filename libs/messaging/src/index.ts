export * from './transport';
export * from './in-process-transport';
export * from './nats-transport';
export * from './bus';
export * from './telemetry';
export * from './call-scope';
export * from './fabric-policy';
export * from './resilience';
