export * from './api-keys';
export * from './rate-limiter';
export * from './ask-fence';
