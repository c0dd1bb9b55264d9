import type { Message } from 'amqplib';

/**
 * The acknowledgements of one consumer channel when its messages are settled out of order
 * (batches in parallel lanes, a retry forwarded beside them). Settles made in the same tick
 * go out together: one `ack(multiple)` up to the newest delivery whose older ones are all
 * settled, and a plain ack for each settled delivery still behind an unsettled one, so a
 * slow message does not hold the prefetch window of those done after it.
 *
 * Every delivery of the channel must pass through `received`: `multiple` acks all of the
 * channel's deliveries up to its tag, so one that is not tracked here could be acked unseen.
 */
export class DeliveryAcks {
  /** Delivery tags in the order the broker gave them (ascending), from `head` on. */
  private order: number[] = [];
  private head = 0;
  private readonly deliveries = new Map<number, { message: Message; settled: boolean; acked: boolean }>();
  private flushing = false;

  constructor(private readonly channel: { ack(message: Message, allUpTo?: boolean): void }) {}

  received(message: Message): void {
    this.order.push(message.fields.deliveryTag);
    this.deliveries.set(message.fields.deliveryTag, { message, settled: false, acked: false });
  }

  /** The message is done with (handled, or its copy confirmed on the retry queue or DLQ). */
  settle(message: Message): void {
    const delivery = this.deliveries.get(message.fields.deliveryTag);
    if (!delivery || delivery.settled) return;
    delivery.settled = true;
    if (this.flushing) return;
    this.flushing = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.flushing = false;
    let upTo: Message | undefined;
    while (this.head < this.order.length) {
      const tag = this.order[this.head]!;
      const delivery = this.deliveries.get(tag)!;
      if (!delivery.settled) break;
      this.deliveries.delete(tag);
      this.head += 1;
      // An already acked tag must not be named again (the broker closes the channel for it);
      // acking a newer one with `multiple` passes over it.
      if (!delivery.acked) upTo = delivery.message;
    }
    if (this.head > 1_000) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
    try {
      if (upTo) this.channel.ack(upTo, true);
      for (const delivery of this.deliveries.values()) {
        if (delivery.settled && !delivery.acked) {
          this.channel.ack(delivery.message);
          delivery.acked = true;
        }
      }
    } catch {
      // The channel closed meanwhile: its unacked messages are redelivered and processed_events absorbs them.
    }
  }
}
