import { Trans, useLingui } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { SUPPORT_EMAIL } from '../../lib/config'
import { problemText } from '../../lib/problem-text'
import { trafficDirectionName } from '../../lib/traffic-direction'
import { closeModal, uiStore } from '../../stores/ui'
import { Button } from '../../ui/button'
import { Modal } from '../../ui/modal'
import { Picture } from '../../ui/picture'

/** spec §2: the five modals, all opened by toggleModal(name, props). */
export function ModalHost() {
  const { t, i18n } = useLingui()
  const { modal } = useSnapshot(uiStore)
  const name = modal?.name ?? null
  const props = modal?.props ?? {}
  const ok = (
    <Button kind="orange" onClick={closeModal}>
      <Trans>OK</Trans>
    </Button>
  )
  const support = (
    <a href={`mailto:${SUPPORT_EMAIL}`}>
      <Trans>contact support</Trans>
    </a>
  )

  return (
    <>
      <Modal
        open={name === 'ProhibitedContent'}
        onClose={closeModal}
        title={t`This content can't be shown`}
        footer={ok}
      >
        <p>
          <Trans>
            Our automatic check found something that may be inappropriate (such as profanity or
            nudity) in your photo, video or message.
          </Trans>
        </p>
        <p>
          <Trans>
            You can still order it, but our team will review your order before it plays on the
            billboard. To avoid the wait, change your design and create it again.
          </Trans>
        </p>
        <p>
          <Trans>If you think this is a mistake, {support}.</Trans>
        </p>
      </Modal>
      <Modal
        open={name === 'StreetView'}
        onClose={closeModal}
        title={props.location ?? t`Street view`}
        footer={ok}
      >
        {props.imageUrl ? (
          <Picture
            className="streetview__img"
            src={props.imageUrl}
            alt={t`The billboard at ${props.location ?? ''}`}
            width={640}
            height={400}
          />
        ) : null}
        {props.direction ? (
          <p>{t`Facing traffic heading ${trafficDirectionName(i18n, props.direction)}`}</p>
        ) : null}
      </Modal>
      <Modal
        open={name === 'DoSomethingBig'}
        onClose={closeModal}
        title={t`Do something big`}
        footer={ok}
      >
        <p>
          <Trans>
            Planning a bigger surprise — many billboards, a whole day, a proposal? Write to us and
            we will build it with you.
          </Trans>
        </p>
        <p>
          <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
        </p>
      </Modal>
      <Modal
        open={name === 'CutOffTime'}
        onClose={closeModal}
        title={t`Why can't I pick earlier times?`}
        footer={ok}
      >
        <p>
          <Trans>
            Orders must be purchased 5 hours before play time (a 6:00pm-6:15pm play needs purchase
            before 1:00pm).
          </Trans>
        </p>
      </Modal>
      <Modal
        open={name === 'PromoCodeError'}
        onClose={closeModal}
        title={t`Promo code error`}
        footer={ok}
      >
        <p>
          {problemText(i18n, { code: 'promo_problem', params: { promoCode: props.code ?? '' } })}
        </p>
        {modal?.problem && modal.problem.code !== 'promo_problem' ? (
          <p className="muted">{problemText(i18n, modal.problem)}</p>
        ) : null}
        <p>
          <Trans>
            Please try entering it again at checkout, or contact support if the problem continues.
          </Trans>
        </p>
        <p>
          <Trans>Check the spelling of the code in your link, or enter it again at checkout.</Trans>
        </p>
      </Modal>
    </>
  )
}

export default ModalHost
