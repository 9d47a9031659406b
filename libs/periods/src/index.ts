export * from './parse';
export * from './resolve';
export * from './label';
export * from './today';
export * from './shift';
export * from './kinds';
