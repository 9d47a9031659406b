export * from './nats-server';
export * from './postgres';
export * from './redis';
export * from './fake-openai';
export * from './smtp';
export * from './context-turn';
export * from './recorded-sources';
