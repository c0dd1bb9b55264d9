export * from './envelope';
export * from './messages';
export * from './accounts';
export * from './pricing';
export * from './orders';
export * from './catalog';
export * from './surveys';
export * from './transfers';
