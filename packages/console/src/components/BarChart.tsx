/** Bars over time, with the same figures as a table for screen readers and exact values. */
export function BarChart({
  title,
  points,
  format,
}: {
  title: string
  points: { label: string; value: number }[]
  format(value: number): string
}) {
  const max = Math.max(1, ...points.map((p) => p.value))
  const width = 600
  const height = 160
  const barWidth = points.length > 0 ? width / points.length : width
  const total = points.reduce((sum, p) => sum + p.value, 0)
  return (
    <figure className="chart">
      <figcaption>
        {title}: {format(total)} in all
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title}, ${points.length} periods`}>
        {points.map((point, index) => {
          const barHeight = (point.value / max) * (height - 4)
          return (
            <rect
              key={point.label}
              x={index * barWidth + 1}
              y={height - barHeight}
              width={Math.max(1, barWidth - 2)}
              height={barHeight}
            >
              <title>
                {point.label}: {format(point.value)}
              </title>
            </rect>
          )
        })}
      </svg>
      <details>
        <summary>Figures</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">{title}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.label}>
                <td>{point.label}</td>
                <td>{format(point.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
