export * from './transport';
export * from './in-process-transport';
export * from './nats-transport';
export * from './bus';
export * from './telemetry';
