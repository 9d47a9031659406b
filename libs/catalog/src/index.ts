export * from './entity-def';
export * from './load-catalog';
