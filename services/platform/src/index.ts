export * from './config';
export * from './log';
export * from './errors';
export * from './lifecycle';
export * from './http/app';
export * from './http/validation';
export * from './http/identity';
export * from './db/index';
