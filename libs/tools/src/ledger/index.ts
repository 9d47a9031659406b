export * from './portfolio-table';
export * from './tools';
