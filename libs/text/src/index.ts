export * from './fold';
export * from './normalize';
export * from './stem';
export * from './stopwords';
export * from './fuzzy';
export { ABBREVIATIONS } from './abbreviations';
export * from './argument-text';
export * from './numbers';
