import type { Handler } from '@warmline/platform/bus/index';
import type { Pool } from '@warmline/platform/db/index';
import { claimEmail, recordDelivery, releaseEmail } from '../db/email-log';
import type { Mailer } from '../domain/mailer';

/**
 * email.send, at most once per command (docs/adr/0041): the claim ('sending') commits on a
 * connection of `claims` before the send, and 'sent' commits with the consumer's transaction.
 * A redelivered command that finds its claim: after 'sent' it is a duplicate; after 'sending'
 * an earlier run stopped between claiming and committing (a crash between the send and the
 * commit, or before or during the send). Then the mailer is asked whether the message went out:
 * the file mailer knows (its .eml is renamed into place whole), so the send is recorded, or made
 * now; SMTP cannot say, so that is logged for ops to check rather than risk a second copy. A
 * send that fails gives the claim back and throws, so the consumer retries and then
 * dead-letters it.
 */
export function sendEmailHandler(mailer: Mailer, claims: Pool): Handler<'email.send'> {
  return async (data, { envelope, db, log }) => {
    const commandId = envelope.id;
    const claim = await claimEmail(claims, {
      commandId,
      recipient: data.to,
      subject: data.subject,
      template: data.template,
      transport: mailer.transport,
    });
    if (claim === 'sent') {
      log.info({ commandId }, 'email already sent for this command; skipping');
      return;
    }
    if (claim === 'sending') {
      // An earlier run claimed it and stopped before recording it: the transport says whether
      // the message went out (the file mailer's .eml is whole or absent); SMTP cannot say.
      const earlier = await mailer.deliveryOf(commandId);
      if (earlier === 'unknown') {
        log.error(
          { commandId, template: data.template, alert: 'email-outcome-unknown' },
          'an earlier run claimed this e-mail and stopped before recording it; not sending it again (it most likely went out)',
        );
        return;
      }
      if (earlier !== undefined) {
        await recordDelivery(db, commandId, earlier);
        log.info({ commandId, template: data.template, location: earlier }, 'an earlier run sent this e-mail and stopped before recording it; recorded now');
        return;
      }
      log.warn({ commandId, template: data.template }, 'an earlier run claimed this e-mail and stopped before sending it; sending it now');
    }
    let delivery;
    try {
      delivery = await mailer.send({
        id: commandId,
        to: data.to,
        subject: data.subject,
        text: data.text,
        ...(data.html === undefined ? {} : { html: data.html }),
        ...(data.brand === undefined ? {} : { brand: data.brand }),
      });
    } catch (err) {
      await releaseEmail(claims, commandId);
      throw err;
    }
    await recordDelivery(db, commandId, delivery.location);
    log.info(
      { commandId, template: data.template, transport: delivery.transport, location: delivery.location },
      delivery.transport === 'file' ? `email written to ${delivery.location}` : 'email sent',
    );
  };
}
