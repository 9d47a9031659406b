export * from './policy';
export * from './shapes';
export * from './llm-plan';
