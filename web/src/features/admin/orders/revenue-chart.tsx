import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { RevenueDay } from '@warmline/contracts/admin-orders';

/**
 * Revenue per day by product, stacked bars (issue 12). Its own chunk: recharts loads only when
 * an admin opens All Orders, never with the public pages.
 */
const SERIES = [
  { key: 'packageCents', name: 'Packages', color: '#0f5b4f' },
  { key: 'secondBrandCents', name: 'Second brand', color: '#f2a516' },
  { key: 'agedLeadsCents', name: 'Aged leads', color: '#1a73e8' },
  { key: 'transferCents', name: 'Transfer orders', color: '#7a3e9d' },
] as const;

const usd = (cents: number) => (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const shortDate = (iso: string) => `${Number(iso.slice(5, 7))}/${Number(iso.slice(8, 10))}`;

export default function RevenueChart({ days }: { days: RevenueDay[] }) {
  return (
    <ResponsiveContainer width="100%" height={280}>
      <BarChart data={days} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="date" tickFormatter={shortDate} minTickGap={16} />
        <YAxis tickFormatter={(v: number) => usd(v)} width={72} />
        <Tooltip formatter={(v) => usd(Number(v))} labelFormatter={(label) => String(label)} />
        {/* Legend text in the body colour: the amber of a series would be too faint to read as text. */}
        <Legend formatter={(value: string) => <span style={{ color: '#17202a' }}>{value}</span>} />
        {SERIES.map((s) => (
          <Bar key={s.key} dataKey={s.key} name={s.name} stackId="revenue" fill={s.color} isAnimationActive={false} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
