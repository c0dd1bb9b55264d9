import type { ReactNode } from 'react';
import { Logo } from './brand';

/** The centred card of the account screens (login, forgot and reset password). */
export function AuthLayout({
  title,
  subtitle,
  children,
  icon,
  tone = 'brand',
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  icon?: ReactNode;
  /** Colour of the icon's disc: brand, success (done) or danger (a broken link). */
  tone?: 'brand' | 'success' | 'danger';
}) {
  return (
    <div className="card-page">
      <header className="card-page__brand">
        <Logo />
      </header>
      <main className="card-page__main" id="main">
        <section className="card auth-card" aria-labelledby="auth-title">
          {icon ? <div className={`auth-card__icon auth-card__icon--${tone}`}>{icon}</div> : null}
          <h1 id="auth-title" className="auth-card__title">
            {title}
          </h1>
          {subtitle ? <p className="card-page__subtitle">{subtitle}</p> : null}
          <div className="auth-card__body">{children}</div>
        </section>
      </main>
    </div>
  );
}
