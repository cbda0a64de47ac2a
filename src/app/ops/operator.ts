import { createContext, useContext } from 'react'
import type { OperatorInfo } from '../../contract/ops/orders'

/** The operator signed in, for the console's pages (the console's layout provides it). */
export const OperatorContext = createContext<OperatorInfo | null>(null)

export function useOperator(): OperatorInfo {
  const operator = useContext(OperatorContext)
  if (!operator) throw new Error('useOperator outside the console layout')
  return operator
}
