export { createBus, type Bus, type BusOptions } from './connection';
export { createServiceBus, openDatabaseAndBus, type ServiceConnectionConfig } from './service-bus';
export { startOutboxRelay, type OutboxRelayOptions } from './relay';
export { subscribe, startConsumer, type Handler, type HandlerContext, type Subscription, type ConsumerOptions } from './consumer';
export { listDeadLetters, replayDeadLetters, UnknownQueueError, type DeadLetter } from './dlq';
export { enqueue, type OutgoingMessage } from './outbox';
export { BusMetrics } from './metrics';
export { pruneBusTables, startRetention, assertRetention, type RetentionSettings } from './retention';
export { declareTopology, queueNames, MANIFEST_TOPOLOGY, type Topology, type TopologyQueue } from './topology';
