export * from './parse';
export * from './resolve';
export * from './label';
