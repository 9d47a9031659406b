export * from './normalize';
export * from './policy';
export * from './resolve-args';
export * from './extract';
export * from './ports';
export * from './tool-gate';
export * from './bench';
