export * from './migrations';
export * from './query';
export * from './repository';
export * from './tools';
