export { createBus, type Bus } from './connection';
export { openDatabaseAndBus } from './service-bus';
export { startOutboxRelay } from './relay';
export { subscribe, startConsumer, startConsumers, type BatchOptions, type Handler, type HandlerContext, type ServiceConsumer, type Subscription } from './consumer';
export { listDeadLetters, replayDeadLetters, UnknownQueueError } from './dlq';
export { enqueue, enqueueAll, outboxRowsOf, type OutboxRows, type OutgoingMessage } from './outbox';
export { pruneBusTables, assertRetention } from './retention';
export { type Topology } from './topology';
