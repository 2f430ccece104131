import ArrowBack from '@mui/icons-material/ArrowBack'
import SchoolOutlined from '@mui/icons-material/SchoolOutlined'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Loading } from '../Loading'
import { type CourseCard, coursesQuery } from './api'
import { courseCounts } from './counts'
import { CourseTree, type PickedCourseItem } from './CourseTree'

export interface CoursePickerProps {
  open: boolean
  onClose: () => void
  /** A resource or a quiz was chosen; the caller closes the picker. */
  onPick: (item: PickedCourseItem) => void
  /** The element chosen before, if any: the picker opens on its course with it selected. */
  value?: { id: number; courseId: number | null } | null
}

const PICKER_WIDTH = 600

/** A dialog to choose a resource or a quiz of the learning platform: first a course, then an element of its tree. */
export function CoursePicker({ open, onClose, onPick, value }: CoursePickerProps) {
  return open ? <PickerDialog onClose={onClose} onPick={onPick} value={value} /> : null
}

function PickerDialog({ onClose, onPick, value }: Omit<CoursePickerProps, 'open'>) {
  const { t } = useTranslation()
  const titleId = useId()
  const [courseId, setCourseId] = useState<number | null>(value?.courseId ?? null)
  const { data: courses } = useQuery(coursesQuery)
  const course = courses?.find((candidate) => candidate.id === courseId)
  return (
    <Dialog open onClose={onClose} maxWidth={false} aria-labelledby={titleId} slotProps={{ paper: { sx: { width: PICKER_WIDTH, maxWidth: '100%' } } }}>
      <DialogTitle id={titleId}>{t('courses.picker.title')}</DialogTitle>
      <DialogContent>
        {courseId === null ? (
          <CourseChoice courses={courses} onChoose={setCourseId} />
        ) : (
          <Stack spacing={1}>
            <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <Button size="small" startIcon={<ArrowBack />} onClick={() => setCourseId(null)}>
                {t('courses.picker.otherCourse')}
              </Button>
              {course && (
                <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere', minWidth: 0 }}>
                  {course.title}
                </Typography>
              )}
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {t('courses.picker.pickHint')}
            </Typography>
            <CourseTree courseId={courseId} onPick={onPick} pickedId={value?.courseId === courseId ? value.id : null} />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.cancel')}</Button>
      </DialogActions>
    </Dialog>
  )
}

function CourseChoice({ courses, onChoose }: { courses: CourseCard[] | undefined; onChoose: (courseId: number) => void }) {
  const { t } = useTranslation()
  if (!courses) return <Loading />
  if (courses.length === 0) return <Typography color="text.secondary">{t('courses.noCourse')}</Typography>
  return (
    <>
      <Typography variant="body2" color="text.secondary">
        {t('courses.picker.chooseCourse')}
      </Typography>
      <List aria-label={t('courses.picker.courses')}>
        {courses.map((course) => (
          <ListItem key={course.id} disablePadding>
            <ListItemButton onClick={() => onChoose(course.id)}>
              <ListItemIcon>
                <SchoolOutlined color="primary" />
              </ListItemIcon>
              <ListItemText
                primary={course.title}
                secondary={courseCounts(t, course)}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </>
  )
}
