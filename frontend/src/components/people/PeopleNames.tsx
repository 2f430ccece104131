import Typography from '@mui/material/Typography'
import { Fragment } from 'react'
import { InactiveMark } from './InactiveMark'

interface Named {
  id: number
  name: string
}

interface PeopleNamesProps {
  people: readonly (Named | null | undefined)[]
  /** The ids of the people who left, as the record's `inactivePeople` says: each is marked. */
  inactive: readonly number[]
  /** Shown when there is nobody. */
  empty: string
}

/** People named on a record, separated by commas, each who left marked as inactive. */
export function PeopleNames({ people, inactive, empty }: PeopleNamesProps) {
  const named = people.filter((person): person is Named => person != null)
  return (
    <Typography variant="body2" component="div" sx={{ overflowWrap: 'anywhere' }}>
      {named.length === 0
        ? empty
        : named.map((person, index) => (
            <Fragment key={person.id}>
              {index > 0 && ', '}
              {person.name}
              {inactive.includes(person.id) && <InactiveMark />}
            </Fragment>
          ))}
    </Typography>
  )
}
