import './offer-points.css';

export interface OfferPoint {
  title: string;
  text: string;
}

/**
 * The points a dashboard offer stands on (Buy Call Transfers, Insurance Recruiting): cards in a
 * row from 720 px, each with a coloured top edge — the brand's, or the accent.
 */
export function OfferPoints({ points, tone = 'brand' }: { points: readonly OfferPoint[]; tone?: 'brand' | 'accent' }) {
  return (
    <ul className={tone === 'accent' ? 'offer-points offer-points--accent' : 'offer-points'}>
      {points.map((point) => (
        <li key={point.title} className="offer-point">
          <h2 className="offer-point__title">{point.title}</h2>
          <p>{point.text}</p>
        </li>
      ))}
    </ul>
  );
}
