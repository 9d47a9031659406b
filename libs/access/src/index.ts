export * from './api-keys';
export * from './rate-limiter';
