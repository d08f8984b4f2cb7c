export * from './types';
export * from './permissions';
export * from './load';
