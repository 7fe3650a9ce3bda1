import { useEffect, useRef, useState } from 'react'
import { niceCeiling } from './chart-scale'
import './fileui.css'

const HEIGHT = 200
const MARGIN = { top: 16, right: 12, bottom: 44, left: 72 }

/**
 * Bars over time with labelled axes: the value axis in the figures' unit (0, half, top), the time
 * axis with dates, and the same figures as a table for screen readers and exact values. Drawn at
 * the width it is given (not scaled), so its text stays readable on a phone.
 */
export function BarChart({
  title,
  points,
  format,
  valueLabel,
  periodLabel = 'Day (UTC)',
  whole = false,
  binary = false,
}: {
  title: string
  /** In time order; periods without traffic as zeros, so the time axis is even. */
  points: { label: string; value: number }[]
  format(value: number): string
  /** The value axis' title, e.g. "Requests" or "Bandwidth". */
  valueLabel: string
  periodLabel?: string
  /** The values are counts: whole ticks. */
  whole?: boolean
  /** The values are bytes: ticks round in KiB, MiB… */
  binary?: boolean
}) {
  const box = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState(600)
  useEffect(() => {
    const element = box.current
    if (!element) return
    const observer = new ResizeObserver(([entry]) => entry && setWidth(Math.max(240, entry.contentRect.width)))
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  const top = niceCeiling(Math.max(0, ...points.map((p) => p.value)), { whole, binary })
  const total = points.reduce((sum, p) => sum + p.value, 0)
  const withTraffic = points.filter((p) => p.value > 0)
  const plotWidth = width - MARGIN.left - MARGIN.right
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom
  const slot = points.length > 0 ? plotWidth / points.length : plotWidth
  // a bar no wider than 48 px, so a single day reads as a bar and not as a filled area
  const barWidth = Math.max(1, Math.min(48, slot - 2))
  const y = (value: number) => MARGIN.top + plotHeight - (value / top) * plotHeight
  // about one date label per 90 px, always the first and the last
  const every = Math.max(1, Math.ceil(points.length / Math.max(1, Math.floor(plotWidth / 90))))
  const edge = (index: number) =>
    index >= points.length * 0.85 ? 'end' : index < points.length * 0.15 ? 'start' : ('middle' as const)
  const labelled = (index: number) =>
    index === points.length - 1 || (index % every === 0 && points.length - 1 - index >= every / 2)

  return (
    <figure className="chart">
      <figcaption>
        {title}: {format(total)} in all
      </figcaption>
      <div ref={box} className="chart-box">
        <svg
          width={width}
          height={HEIGHT}
          role="img"
          aria-label={`${title}, ${withTraffic.length} periods with traffic of ${points.length}`}
        >
          {[0, top / 2, top].map((tick) => (
            <g key={tick} className="tick">
              <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} />
              <text x={MARGIN.left - 6} y={y(tick)} textAnchor="end" dominantBaseline="middle">
                {format(tick)}
              </text>
            </g>
          ))}
          <text
            className="axis-title"
            transform={`translate(14 ${MARGIN.top + plotHeight / 2}) rotate(-90)`}
            textAnchor="middle"
          >
            {valueLabel}
          </text>
          {points.map((point, index) => {
            const x = MARGIN.left + index * slot + (slot - barWidth) / 2
            return (
              <g key={point.label}>
                {point.value > 0 && (
                  <rect className="bar" x={x} y={y(point.value)} width={barWidth} height={y(0) - y(point.value)}>
                    <title>
                      {point.label}: {format(point.value)}
                    </title>
                  </rect>
                )}
                {withTraffic.length <= 3 && point.value > 0 && (
                  // near an edge the figure runs inward, so it is never cut off
                  <text
                    className="bar-value"
                    x={edge(index) === 'end' ? x + barWidth : edge(index) === 'start' ? x : x + barWidth / 2}
                    y={y(point.value) - 4}
                    textAnchor={edge(index)}
                  >
                    {format(point.value)}
                  </text>
                )}
                {labelled(index) && (
                  <text className="tick-label" x={x + barWidth / 2} y={y(0) + 16} textAnchor="middle">
                    {point.label.slice(5)}
                  </text>
                )}
              </g>
            )
          })}
          <line className="axis" x1={MARGIN.left} x2={width - MARGIN.right} y1={y(0)} y2={y(0)} />
          <text className="axis-title" x={MARGIN.left + plotWidth / 2} y={HEIGHT - 6} textAnchor="middle">
            {periodLabel}
          </text>
        </svg>
      </div>
      <details>
        <summary>Figures</summary>
        {withTraffic.length === 0 ? (
          <p>No traffic in this period.</p>
        ) : (
          <table>
            <caption className="visually-hidden">{title}, periods with traffic</caption>
            <thead>
              <tr>
                <th scope="col">{periodLabel}</th>
                <th scope="col">{valueLabel}</th>
              </tr>
            </thead>
            <tbody>
              {withTraffic.map((point) => (
                <tr key={point.label}>
                  <td>{point.label}</td>
                  <td>{format(point.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </details>
    </figure>
  )
}
