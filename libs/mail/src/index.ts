export * from './render';
export * from './retry';
export * from './smtp-sender';
export * from './outbox-worker';
