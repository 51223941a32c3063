;;; acg-eglot-test.el --- Emacs eglot as a real client of acg-lsp  -*- lexical-binding: t; -*-

;; Run in batch by run.sh with ACG_LSP (the server) and ACG_TEST_ROOT (a
;; copy of testdata/inbox).  Opens agent.py, waits for acg's Flymake
;; diagnostics (eglot does not take relatedInformation, so the server puts
;; the path steps into the message), applies the quick fix through
;; `eglot-code-actions' and waits for the diagnostics to clear.  Exits 0 on
;; success, 1 with the reason on failure.

;;; Code:

(require 'eglot)
(require 'flymake)
(require 'python)

(defun acg-test--log (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n") #'external-debugging-output))

(defun acg-test--wait (what seconds pred)
  "Process events until PRED is non-nil or SECONDS pass; fail with WHAT."
  (let ((deadline (+ (float-time) seconds))
        result)
    (while (and (not (setq result (funcall pred)))
                (< (float-time) deadline))
      (accept-process-output nil 0.05)
      ;; Batch Emacs is never idle and has no command loop: run the idle
      ;; timers (eglot sends didChange from one) and start Flymake's
      ;; backends, as an interactive session would between keystrokes.
      (dolist (timer (copy-sequence timer-idle-list))
        (timer-event-handler timer))
      (dolist (b (buffer-list))
        (with-current-buffer b
          (when (and (bound-and-true-p flymake-mode) (null (flymake-running-backends)))
            (flymake-start))))
      (sit-for 0))
    (or result (error "Timed out after %ss waiting for %s" seconds what))))

(defun acg-test--acg-diags (buffer)
  (with-current-buffer buffer
    (cl-remove-if-not
     (lambda (d)
       (let ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))))
         (equal (plist-get lsp :source) "acg")))
     (flymake-diagnostics))))

(defun acg-test--main ()
  (let* ((server (or (getenv "ACG_LSP") (error "ACG_LSP not set")))
         (root (file-name-as-directory (or (getenv "ACG_TEST_ROOT") (error "ACG_TEST_ROOT not set"))))
         (eglot-server-programs `((python-mode . (,server))))
         (eglot-sync-connect t)
         (eglot-autoreconnect nil)
         (inhibit-message t)
         agent-buf tools-buf diag asked offered)
    ;; A project rooted at the fixture, with no VCS needed.
    (add-hook 'project-find-functions (lambda (_dir) (cons 'transient root)))
    (setq agent-buf (find-file-noselect (expand-file-name "agent.py" root)))
    (with-current-buffer agent-buf
      (unless (derived-mode-p 'python-mode) (error "agent.py is in %s" major-mode))
      ;; M-x eglot, as a user starts it.
      (call-interactively #'eglot)
      (acg-test--wait "eglot to manage agent.py" 15 (lambda () (bound-and-true-p eglot--managed-mode)))
      (setq diag
            (car (acg-test--wait
                  "acg's rule-of-two diagnostic" 30
                  (lambda ()
                    (cl-remove-if-not
                     (lambda (d)
                       (equal (plist-get (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d))) :code)
                              "rule-of-two"))
                     (acg-test--acg-diags agent-buf))))))
      (let ((text (flymake-diagnostic-text diag)))
        (acg-test--log "diagnostic: %s [+%d path steps in the message]"
                       (car (split-string text "\n"))
                       (1- (length (split-string text "\n"))))
        (unless (string-match-p "inbox_assistant" text)
          (error "Message does not name the agent: %s" text))
        ;; No relatedInformation support in eglot: the steps are in the message.
        (dolist (step '("read_email" "read_notes" "send_http" "tools.py:37"))
          (unless (string-match-p (regexp-quote step) text)
            (error "Message lacks the path step %s: %s" step text))))
      (unless (equal (line-number-at-pos (flymake-diagnostic-beg diag)) 9)
        (error "Diagnostic on line %d, want 9" (line-number-at-pos (flymake-diagnostic-beg diag))))
      ;; The quick fix as a user runs it: M-x eglot-code-actions on the
      ;; diagnostic, accept the default (preferred) action, and say yes to
      ;; editing tools.py, which is not open.
      (goto-char (flymake-diagnostic-beg diag))
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt collection &rest args)
                   (let ((default (nth 4 args))) ; PREDICATE REQUIRE-MATCH INITIAL HIST DEF
                     (setq offered (mapcar #'car collection))
                     (acg-test--log "actions offered: %S" offered)
                     default)))
                ((symbol-function 'y-or-n-p)
                 (lambda (prompt) (setq asked prompt) t))
                ;; A keyboard event, as after M-x: the menu is read with completing-read.
                (last-nonmenu-event ?\r))
        (eglot-code-actions (flymake-diagnostic-beg diag) (flymake-diagnostic-end diag) nil t))
      ;; eglot sends every diagnostic of the line: each fix is offered once.
      (unless offered (error "No code action offered"))
      (unless (equal offered (delete-dups (copy-sequence offered)))
        (error "Actions offered more than once: %S" offered)))
    (acg-test--log "confirmation asked: %s" (if asked (replace-regexp-in-string "\n" " " asked) "no"))
    (setq tools-buf (or (get-file-buffer (expand-file-name "tools.py" root))
                        (error "The fix did not open tools.py")))
    (with-current-buffer tools-buf
      (let ((text (buffer-string)))
        (unless (string-match-p "^from langgraph\\.types import interrupt$" text)
          (error "Import not added:\n%s" text))
        (let* ((def (string-match "^def send_http(" text))
               (gate (and def (string-match "interrupt(" text def)))
               (post (and def (string-match "requests\\.post(" text def))))
          (unless (and gate post (< gate post))
            (error "interrupt() not in send_http before the POST:\n%s" text))))
      (unless (bound-and-true-p eglot--managed-mode)
        (error "tools.py is not managed by eglot")))
    ;; interrupt() needs a checkpointer: the same fix gives the agent one.
    (with-current-buffer agent-buf
      (unless (string-match-p "checkpointer=InMemorySaver()" (buffer-string))
        (error "No checkpointer on the agent:\n%s" (buffer-string))))
    (acg-test--wait "acg's diagnostics to clear" 30
                    (lambda () (and (null (acg-test--acg-diags agent-buf))
                                    (null (acg-test--acg-diags tools-buf)))))
    ;; M-x eglot-shutdown: the shutdown request must succeed (it signals
    ;; otherwise). Emacs 28's jsonrpc deletes the process right after
    ;; sending exit, so the exit code is not the server's to choose here.
    (with-current-buffer agent-buf
      (let ((server (eglot-current-server)))
        (eglot-shutdown server)
        (when (process-live-p (jsonrpc--process server))
          (error "acg-lsp still running after eglot-shutdown"))))))

(condition-case err
    (progn
      (acg-test--main)
      (acg-test--log "PASS")
      (kill-emacs 0))
  (error
   (acg-test--log "FAIL: %s" (error-message-string err))
   ;; The end of eglot's events buffer says what the server sent.
   (dolist (server (and (boundp 'eglot--servers-by-project)
                        (apply #'append (hash-table-values eglot--servers-by-project))))
     (with-current-buffer (jsonrpc-events-buffer server)
       (acg-test--log "eglot events (end):\n%s"
                      (buffer-substring-no-properties (max (point-min) (- (point-max) 4000)) (point-max)))))
   (kill-emacs 1)))

;;; acg-eglot-test.el ends here
