export * from './ask-types';
export * from './ask-pipeline';
export * from './client-erasure';
export * from './plan-runner';
