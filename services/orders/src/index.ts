export { startOrders, ORDERS_SCHEMA, ORDERS_MIGRATIONS_DIR, type RunningOrders } from './service';
export { ordersEnv, resolvePaymentProvider, type OrdersConfig } from './config';
