import { useState } from 'react';
import { logout } from '../auth/api';
import { SIDEBAR_SECTIONS, VIEW_LABELS, type DashboardView } from './dashboard-views';

/**
 * The dashboard's left sidebar (spec §2): Purchase, the agent's leads, Training and Support,
 * then Logout. On phones it folds into a menu button that names the current view, and the
 * header's Logout is the one shown instead of this one (dashboard.css).
 */
export function DashboardSidebar({
  view,
  onView,
  greeting,
}: {
  view: DashboardView;
  onView(view: DashboardView): void;
  greeting: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <aside className={open ? 'dash-sidebar dash-sidebar--open' : 'dash-sidebar'}>
      <h2 className="dash-sidebar__welcome">{greeting}</h2>
      <button
        type="button"
        className="dash-sidebar__toggle"
        aria-expanded={open}
        aria-controls="dashboard-menu"
        onClick={() => setOpen((o) => !o)}
      >
        <span className="dash-sidebar__toggle-label">Menu</span>
        <span className="dash-sidebar__toggle-current">{VIEW_LABELS[view]}</span>
        <span aria-hidden="true" className="dash-sidebar__chevron">
          ▾
        </span>
      </button>
      <nav id="dashboard-menu" className="dash-sidebar__nav" aria-label="Dashboard">
        {SIDEBAR_SECTIONS.map((section) => (
          <div key={section.title} className="dash-sidebar__section">
            <h2 className="dash-sidebar__heading">{section.title}</h2>
            <ul className="dash-sidebar__list">
              {section.views.map((v) => (
                <li key={v}>
                  <a
                    href={`/dashboard?view=${v}`}
                    className={v === view ? 'dash-sidebar__link dash-sidebar__link--current' : 'dash-sidebar__link'}
                    aria-current={v === view ? 'page' : undefined}
                    onClick={(event) => {
                      // A plain click switches the view in place; ctrl/cmd-click opens a new tab as links do.
                      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                      event.preventDefault();
                      setOpen(false);
                      onView(v);
                    }}
                  >
                    {VIEW_LABELS[v]}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
        {/* A navigation to /api/logout (spec §2); the stored user is forgotten first. */}
        <a
          href="/api/logout"
          className="dash-sidebar__logout"
          onClick={(event) => {
            event.preventDefault();
            logout();
          }}
        >
          Logout
        </a>
      </nav>
    </aside>
  );
}
