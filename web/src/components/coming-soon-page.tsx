import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../lib/page-title';
import { SiteFooter, SiteHeader } from './site-header';

/**
 * An honest stand-in for a screen whose content is built in a later issue: the screen's
 * title, a line saying so, and ways onward.
 */
export function ComingSoonPage({ title, children }: { title: string; children?: ReactNode }) {
  usePageTitle(title);
  return (
    <div className="public-page">
      <SiteHeader />
      <main id="main" className="public-page__main">
        <section className="card coming-soon">
          <h1 className="coming-soon__title">{title}</h1>
          {children}
          <p className="coming-soon__note">This page is being built and will be available soon.</p>
          <p className="coming-soon__links">
            <Link to="/survey" className="link">
              Complete our survey to get started
            </Link>
            <span aria-hidden="true"> · </span>
            <Link to="/" className="link">
              Back to home
            </Link>
          </p>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
