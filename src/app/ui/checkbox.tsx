import { type InputHTMLAttributes, type ReactNode, useId } from 'react'

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  children: ReactNode
}

export function Checkbox({ children, id, ...rest }: CheckboxProps) {
  const autoId = useId()
  const fieldId = id ?? autoId
  return (
    <div className="check">
      <input {...rest} id={fieldId} type="checkbox" className="check__input" />
      <label htmlFor={fieldId} className="check__label">
        {children}
      </label>
    </div>
  )
}
