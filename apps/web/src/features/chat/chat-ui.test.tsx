import { CHAT_MSG, CHAT_TIMINGS } from '@ohgood/contract/chat-rules';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/api-client';
import { ChatComposer } from './components/chat-composer';
import { errorMessage, thinkingDelay } from './use-chat';

describe('chat composer', () => {
  const setup = (disabled = false) => {
    const onSend = vi.fn();
    render(<ChatComposer disabled={disabled} onSend={onSend} />);
    return { onSend, box: screen.getByLabelText('메시지') as HTMLTextAreaElement };
  };

  it('Enter sends and clears; Shift+Enter does not send', () => {
    const { onSend, box } = setup();
    fireEvent.input(box, { target: { value: '포인트 내역' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('포인트 내역');
    expect(box.value).toBe('');
  });

  it('ignores blank input and Enter while a Korean syllable is being composed', () => {
    const { onSend, box } = setup();
    fireEvent.input(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.input(box, { target: { value: '안녕' } });
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true });
    expect(onSend).not.toHaveBeenCalled();
  });

  it('is locked while the bot types or a mismatch choice is pending', () => {
    const { onSend, box } = setup(true);
    expect(box.getAttribute('aria-disabled')).toBe('true');
    expect(box.readOnly).toBe(true);
    fireEvent.input(box, { target: { value: '안녕' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: CHAT_MSG.send }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('chat errors and timings', () => {
  it('maps failures to the three failure messages', () => {
    expect(errorMessage(new ApiError(500, 'INTERNAL_ERROR', 'x'))).toBe(CHAT_MSG.serverError);
    expect(errorMessage(new ApiError(503, 'INTERNAL_ERROR', 'x'))).toBe(CHAT_MSG.serverError);
    expect(errorMessage(new ApiError(0, 'NETWORK_ERROR', 'x'))).toBe(CHAT_MSG.temporaryError);
    expect(errorMessage(new ApiError(400, 'VALIDATION_ERROR', 'x'))).toBe(CHAT_MSG.temporaryError);
  });

  it('waits 500 ms before a quick-menu card, 1000 ms before an FAQ answer', () => {
    expect(thinkingDelay({ quickMenu: { menu: 'checkin', title: '출석 체크', path: null }, flow: 'init' })).toBe(
      CHAT_TIMINGS.quickMenuDelayMs,
    );
    expect(thinkingDelay({ quickMenu: null, flow: 'question' })).toBe(CHAT_TIMINGS.faqAnswerDelayMs);
  });
});
