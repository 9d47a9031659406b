export * from './ask-types';
export * from './ask-pipeline';
