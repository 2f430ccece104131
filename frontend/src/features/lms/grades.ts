/** A grade out of 10 with one decimal, as the language writes numbers (7.5 in English, 7,5 in French): spec 2 §9. */
export function formatGrade(grade: number, language: string): string {
  return new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(grade)
}

/** A quiz's pass mark out of 10 from its mastery score (a scaled score, 0 to 1): 0.8 is 8, 0.75 is 7.5. */
export function formatPassMark(masteryScore: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(Math.round(masteryScore * 100) / 10)
}
