export * from './policy';
export * from './resolve-args';
export * from './ports';
export * from './tool-gate';
export * from './bench';
