export * from './rule';
export * from './migrations';
export * from './store';
export * from './evaluator';
export * from './alert-tools';
export * from './consumer';
export * from './erasure';
export * from './observers';
