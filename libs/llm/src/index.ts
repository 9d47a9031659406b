export * from './llm-client';
