export * from './portfolio-table';
export * from './tools';
export * from './tax-tools';
export * from './portfolio-return';
