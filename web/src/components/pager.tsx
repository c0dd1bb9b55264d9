import { pageButtons } from '../lib/page-buttons';
import './pager.css';

/** Previous, up to 5 numbered pages around the current one (spec §9's aged-lead pager), Next. */
export function Pager({
  page,
  totalPages,
  onPage,
  label,
}: {
  page: number;
  totalPages: number;
  onPage(page: number): void;
  label: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="pager__button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        Previous
      </button>
      {pageButtons(page, totalPages).map((n) => (
        <button
          key={n}
          type="button"
          className={n === page ? 'pager__button pager__button--current' : 'pager__button'}
          aria-current={n === page ? 'page' : undefined}
          aria-label={`Page ${n}`}
          onClick={() => onPage(n)}
        >
          {n}
        </button>
      ))}
      <button type="button" className="pager__button" onClick={() => onPage(page + 1)} disabled={page >= totalPages}>
        Next
      </button>
    </nav>
  );
}
