export * from './paths';
export * from './policy-loader';
export * from './env';
