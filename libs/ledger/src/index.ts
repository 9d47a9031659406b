export * from './b3/table';
export * from './b3/statement';
export * from './entry-id';
export * from './preview';
export * from './store';
export * from './imports';
export * from './trades';
