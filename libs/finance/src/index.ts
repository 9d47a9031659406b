export * from './decimal';
export * from './compound';
export * from './rates';
export * from './cash-flows';
export * from './risk';
export * from './bench';
