export * from './entity-def';
export * from './load-catalog';
export * from './measures';
export * from './entity-classes';
export * from './alerts';
