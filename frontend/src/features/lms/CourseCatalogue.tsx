import DeleteOutline from '@mui/icons-material/DeleteOutlined'
import ButtonBase from '@mui/material/ButtonBase'
import Card from '@mui/material/Card'
import CardContent from '@mui/material/CardContent'
import IconButton from '@mui/material/IconButton'
import Stack from '@mui/material/Stack'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import type { CourseCard } from '../../components/courses/api'
import { courseCounts } from '../../components/courses/counts'
import { formatDate } from '../../lib/dates'

interface CourseCatalogueProps {
  courses: CourseCard[]
  selectedId: number | undefined
  onSelect: (courseId: number) => void
  /** Offered on the courses whose `can.remove` the server gave. */
  onRemove?: (course: CourseCard) => void
}

/** The courses of the platform as cards: title, description, what they hold; the chosen one shows its tree. */
export function CourseCatalogue({ courses, selectedId, onSelect, onRemove }: CourseCatalogueProps) {
  const { t, i18n } = useTranslation()
  if (courses.length === 0) return <Typography color="text.secondary">{t('courses.noCourse')}</Typography>
  return (
    <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {courses.map((course) => {
        const selected = course.id === selectedId
        return (
          <li key={course.id}>
            <Card
              variant="outlined"
              sx={{
                position: 'relative',
                display: 'flex',
                alignItems: 'flex-start',
                borderColor: selected ? 'primary.main' : undefined,
                borderWidth: selected ? 2 : 1,
                '&:hover': { bgcolor: 'action.hover' },
                '&:has(:focus-visible)': { outline: 2, outlineColor: 'primary.main', outlineOffset: 2 },
              }}
            >
              <CardContent sx={{ minWidth: 0, flexGrow: 1 }}>
                <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere', lineHeight: 1.4 }}>
                  {/* The title is the card's button; its box stretches over the whole card, so a click anywhere chooses it. */}
                  <ButtonBase
                    onClick={() => onSelect(course.id)}
                    aria-pressed={selected}
                    sx={{ font: 'inherit', textAlign: 'left', '&::after': { content: '""', position: 'absolute', inset: 0 } }}
                  >
                    {course.title}
                  </ButtonBase>
                </Typography>
                {course.description && (
                  <Typography variant="body2" sx={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line', mt: 0.5 }}>
                    {course.description}
                  </Typography>
                )}
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {courseCounts(t, course)}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {t('lms.catalogue.importedOn', { date: formatDate(course.importedAt, i18n.language) })}
                </Typography>
              </CardContent>
              {onRemove && course.can.remove && (
                <Tooltip title={t('lms.catalogue.remove', { title: course.title })}>
                  {/* Above the title's stretched box, so that it stays its own button. */}
                  <IconButton aria-label={t('lms.catalogue.remove', { title: course.title })} onClick={() => onRemove(course)} sx={{ m: 1, zIndex: 1 }}>
                    <DeleteOutline />
                  </IconButton>
                </Tooltip>
              )}
            </Card>
          </li>
        )
      })}
    </Stack>
  )
}
