import { useState } from 'react';
import type { PublicUser } from '@warmline/contracts/accounts';
import { Button } from '../../components/button';
import { OfferPoints } from '../dashboard/offer-points';
import { RecruitingRequestDialog } from './recruiting-request-dialog';
import './recruiting.css';

const POINTS = [
  {
    title: 'Agent Sourcing',
    text: 'We find licensed, motivated agents for your lines and states, screened before you ever talk to them.',
  },
  {
    title: 'Training Support',
    text: 'New agents get onboarding and sales training that fits your products, so they write business sooner.',
  },
  {
    title: 'Retention Program',
    text: 'Check-ins, coaching and incentive plans that keep your best producers with your agency.',
  },
];

/** Insurance Recruiting (spec §2): three blocks and 'Contact Recruiting Team', which opens the request form. */
export function InsuranceRecruitingView({ user }: { user: PublicUser }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="dash-view" aria-labelledby="recruiting-title">
      <div className="view-header">
        <h1 id="recruiting-title" className="view-header__title">
          Insurance Recruiting
        </h1>
        <p className="view-header__lead">Grow your agency with agents who are ready to sell and want to stay.</p>
      </div>
      <OfferPoints points={POINTS} tone="accent" />
      <div className="card offer-cta recruiting-cta">
        <div>
          <h2 className="recruiting-cta__title">Ready to build your team?</h2>
          <p>Tell our recruiting team what you need; they will reply within one business day.</p>
        </div>
        <Button onClick={() => setOpen(true)}>Contact Recruiting Team</Button>
      </div>
      <RecruitingRequestDialog user={user} open={open} onOpenChange={setOpen} />
    </section>
  );
}
