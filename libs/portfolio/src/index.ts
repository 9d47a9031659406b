export * from './ledger';
export * from './positions';
export * from './income';
export * from './tax';
export * from './yearly-report';
export * from './period-return';
export * from './adjusted-units';
