import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined'
import Button from '@mui/material/Button'
import Grid from '@mui/material/Grid'
import Stack from '@mui/material/Stack'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { organizationInfoQuery, whoAmIQuery } from '../../api/queries'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { type CourseCard, coursesQuery } from '../../components/courses/api'
import { Loading } from '../../components/Loading'
import { Notice } from '../../components/Notice'
import { PageHeader } from '../../components/PageHeader'
import { usePageTitle } from '../../lib/pageTitle'
import { useRemoveCourse } from './api'
import { CourseCatalogue } from './CourseCatalogue'
import { CourseContent } from './CourseContent'
import { MyAttempts } from './MyAttempts'
import { Section } from '../../components/Section'
import { UploadCourseDialog } from './UploadCourseDialog'

/** Spot's learning platform: the course catalogue, the chosen course's tree with a launch per unit, and the learner's attempts. */
export function LmsPage() {
  const { t } = useTranslation()
  usePageTitle(t('lms.pageTitle'))
  const { data: user } = useQuery(whoAmIQuery)
  // The buttons show what the server allows: importing (whoAmI's can), removing (each course's can).
  const importer = user?.can.importCourses === true
  const { data: courses } = useQuery(coursesQuery)
  const { data: organization } = useQuery(organizationInfoQuery)
  const [chosenId, setChosenId] = useState<number>()
  const [uploading, setUploading] = useState(false)
  const [removing, setRemoving] = useState<CourseCard>()
  const [notice, setNotice] = useState<string>()
  const remove = useRemoveCourse()
  // The first course is shown until another is chosen, and again when the chosen one goes.
  const course = courses?.find((candidate) => candidate.id === chosenId) ?? courses?.[0]

  return (
    <>
      <PageHeader
        title={t('lms.pageTitle')}
        actions={
          importer && (
            <Button variant="contained" startIcon={<UploadFileOutlined />} onClick={() => setUploading(true)}>
              {t('lms.upload.open')}
            </Button>
          )
        }
      />
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, md: 4 }} sx={{ minWidth: 0 }}>
          <Section title={t('lms.catalogue.title')}>
            {courses ? (
              <CourseCatalogue courses={courses} selectedId={course?.id} onSelect={setChosenId} onRemove={setRemoving} />
            ) : (
              <Loading />
            )}
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 8 }} sx={{ minWidth: 0 }}>
          <Stack spacing={2.5}>
            {course && <CourseContent key={course.id} course={course} />}
            <MyAttempts />
          </Stack>
        </Grid>
      </Grid>
      {uploading && (
        <UploadCourseDialog
          maxBytes={organization?.courseMaxBytes}
          onClose={() => setUploading(false)}
          onDone={(result) => {
            setUploading(false)
            setChosenId(result.id)
            setNotice(t(result.created ? 'lms.upload.created' : 'lms.upload.updated', { title: result.title }))
          }}
        />
      )}
      {removing && (
        <ConfirmDialog
          title={t('lms.remove.title')}
          message={t('lms.remove.message', { title: removing.title })}
          confirmLabel={t('lms.remove.confirm')}
          pending={remove.isPending}
          onClose={() => setRemoving(undefined)}
          onConfirm={() =>
            remove.mutate(removing.id, {
              onSuccess: () => setNotice(t('lms.remove.done', { title: removing.title })),
              onSettled: () => setRemoving(undefined),
            })
          }
        />
      )}
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </>
  )
}
