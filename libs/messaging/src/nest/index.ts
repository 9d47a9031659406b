export * from './bus-context';
export * from './bus-server';
export * from './bus-client';
export * from './contract.pipe';
export * from './bus-exception.filter';
export * from './step-telemetry.interceptor';
export * from './decorators';
