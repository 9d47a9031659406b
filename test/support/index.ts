export * from './nats-server';
export * from './postgres';
export * from './redis';
