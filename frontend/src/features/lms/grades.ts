/** A grade out of 10 with one decimal, as the language writes numbers (7.5 in English, 7,5 in French): spec 2 §9. */
export function formatGrade(grade: number, language: string): string {
  return new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(grade)
}
