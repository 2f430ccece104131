import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Link from '@mui/material/Link'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { trainingPathPath } from '../../lib/paths'
import { useCompletionText } from '../../components/Completion'
import { formatDate } from '../../lib/dates'
import type { ReportPaths } from './api'
import { InactiveMark } from '../../components/people/InactiveMark'

/** The widest a dialog gets (spec 2 §9). */
const MAX_DIALOG_WIDTH = 800

/** Show training paths (spec 2 §2): the paths the parameters select, in the report's order; nothingToDisplay when none. */
export function PathsDialog({ paths, onClose }: { paths: ReportPaths; onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const completion = useCompletionText()
  const titleId = useId()
  const grade = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 })
  const { results, totalItems } = paths

  return (
    <Dialog open onClose={onClose} maxWidth={false} aria-labelledby={titleId} slotProps={{ paper: { sx: { width: MAX_DIALOG_WIDTH, maxWidth: '100%' } } }}>
      <DialogTitle id={titleId}>{t('reports.paths.title')}</DialogTitle>
      <DialogContent dividers>
        {totalItems === 0 ? (
          <Typography>{t('codes.nothingToDisplay')}</Typography>
        ) : (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {results.length < totalItems ? t('reports.paths.someOf', { shown: results.length, count: totalItems }) : t('reports.paths.count', { count: totalItems })}
            </Typography>
            <TableContainer sx={{ maxHeight: '60vh' }} tabIndex={0} role="region" aria-labelledby={titleId}>
              <Table size="small" stickyHeader>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('reports.paths.learner')}</TableCell>
                    <TableCell>{t('reports.paths.path')}</TableCell>
                    <TableCell>{t('reports.paths.status')}</TableCell>
                    <TableCell>{t('reports.paths.dates')}</TableCell>
                    <TableCell align="right">{t('reports.paths.modules')}</TableCell>
                    <TableCell align="right">{t('reports.paths.completion')}</TableCell>
                    <TableCell align="right">{t('reports.paths.averageGrade')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {results.map((row) => (
                    <TableRow key={row.id}>
                      <TableCell>
                        {row.learner.name}
                        {!row.learner.active && <InactiveMark />}
                      </TableCell>
                      <TableCell>
                        <Link component={RouterLink} to={trainingPathPath(row.id)}>
                          {row.title}
                        </Link>
                        {row.reference && (
                          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                            {row.reference}
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell>{t(`trainingPaths.status.${row.status}`)}</TableCell>
                      {/* May wrap between its two dates (a date never breaks), so that every column fits the dialog. */}
                      <TableCell>
                        {t('reports.paths.period', { start: formatDate(row.startDate, i18n.language), stop: formatDate(row.stopDate, i18n.language) })}
                      </TableCell>
                      <TableCell align="right">{row.modules}</TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        {completion(row.completion)}
                      </TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        {row.averageGrade === null ? t('reports.paths.notGraded') : t('reports.paths.grade', { value: grade.format(row.averageGrade) })}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.close')}</Button>
      </DialogActions>
    </Dialog>
  )
}
