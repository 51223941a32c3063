-- The plugin's file matching, root finding and the lsp/acg.lua config, on
-- real files in a temporary tree. Run by run.sh; ends with :qall! or :cquit.

local function log(msg)
  io.stderr:write(msg .. '\n')
end

local function main()
  local acg = require('acg')
  local cases = {
    { 'app/agent.py', '', true },
    { 'app/agent.txt', 'python', true },
    { 'src/agent.ts', '', true },
    { 'src/agent.tsx', 'typescriptreact', true },
    { 'lib/server.mjs', '', true },
    { 'app/x', 'javascript', true },
    { 'types/env.d.ts', 'typescript', false },
    { '.mcp.json', 'json', true },
    { 'proj/.vscode/mcp.json', 'json', true },
    { 'proj/.claude/settings.json', 'json', true },
    { 'proj/.claude/settings.local.json', 'json', true },
    { '.claude/settings.json', 'json', true },
    { 'proj/.claude/agents/reviewer.md', 'markdown', true },
    { 'proj/.codex/config.toml', 'toml', true },
    { '.gemini/settings.json', 'json', true },
    { 'proj/.zed/settings.json', 'json', true },
    { 'proj/.continue/mcpServers/fetch.yaml', 'yaml', true },
    { '.codeium/windsurf/mcp_config.json', 'json', true },
    { 'plugins/web/.claude-plugin/plugin.json', 'json', true },
    { 'proj/config.toml', 'toml', false },
    { 'package.json', 'json', false },
    { 'proj/claude/settings.json', 'json', false },
    { 'proj/.claude/agents/notes/x.md', 'markdown', false },
    { 'README.md', 'markdown', false },
    { '', 'python', false },
  }
  for _, c in ipairs(cases) do
    local got = acg.wants(c[1], c[2])
    assert(got == c[3], ('wants(%q, %q) = %s, want %s'):format(c[1], c[2], tostring(got), tostring(c[3])))
  end

  local tmp = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(tmp .. '/proj/.claude/agents', 'p')
  vim.fn.mkdir(tmp .. '/proj/src/pkg', 'p')
  vim.fn.writefile({ '[project]' }, tmp .. '/proj/pyproject.toml')
  vim.fn.writefile({}, tmp .. '/proj/src/pkg/agent.py')
  vim.fn.writefile({}, tmp .. '/proj/.claude/agents/reviewer.md')
  vim.fn.mkdir(tmp .. '/loose', 'p')
  vim.fn.writefile({}, tmp .. '/loose/tool.py')
  local roots = {
    { tmp .. '/proj/src/pkg/agent.py', tmp .. '/proj' },
    { tmp .. '/proj/.claude/agents/reviewer.md', tmp .. '/proj' },
  }
  for _, r in ipairs(roots) do
    local got = acg.root_dir(r[1])
    assert(got == r[2], ('root_dir(%s) = %s, want %s'):format(r[1], got, r[2]))
  end
  -- No marker anywhere up to /: the current directory when the file is
  -- inside it, else the file's directory.
  local markers = { 'no-such-marker-' .. vim.fn.getpid() }
  vim.cmd('cd ' .. tmp)
  assert(acg.root_dir(tmp .. '/loose/tool.py', markers) == tmp, 'root_dir falls back to the cwd')
  vim.cmd('cd /')
  assert(acg.root_dir(tmp .. '/loose/tool.py', markers) == tmp .. '/loose', 'root_dir falls back to the file dir')

  -- lsp/acg.lua, the vim.lsp.config form: plain fields plus a root_dir that
  -- only answers for files acg reads.
  local cfg = dofile(vim.api.nvim_get_runtime_file('lsp/acg.lua', false)[1])
  assert(cfg.cmd[1] == 'acg-lsp', 'cmd')
  assert(vim.tbl_contains(cfg.filetypes, 'typescript') and vim.tbl_contains(cfg.filetypes, 'javascriptreact'), 'ts filetypes')
  assert(vim.tbl_contains(cfg.filetypes, 'python') and vim.tbl_contains(cfg.filetypes, 'markdown'), 'filetypes')
  assert(type(cfg.settings.acg) == 'table', 'settings.acg')
  vim.cmd('filetype on')
  local function root_for(file)
    vim.cmd('edit ' .. vim.fn.fnameescape(file))
    local got
    cfg.root_dir(vim.api.nvim_get_current_buf(), function(dir)
      got = dir
    end)
    return got
  end
  assert(root_for(tmp .. '/proj/src/pkg/agent.py') == tmp .. '/proj', 'lsp/acg.lua root for agent.py')
  vim.fn.writefile({ '# notes' }, tmp .. '/proj/README.md')
  assert(root_for(tmp .. '/proj/README.md') == nil, 'lsp/acg.lua skips README.md')

  -- path_lines: the finding, then one line per related location (relative
  -- to the cwd), wrapped at the width with the indentation kept.
  vim.cmd('cd ' .. tmp)
  local lines = acg.path_lines({
    severity = 1,
    code = 'rule-of-two',
    message = 'Agent a breaks the Rule of Two: it reads untrusted input (read_email) and can act outward (send_http)',
    user_data = { lsp = { relatedInformation = {
      { location = { uri = vim.uri_from_fname(tmp .. '/tools.py'), range = { start = { line = 36, character = 11 } } },
        message = 'sends model-chosen data with requests.post [rules]' },
    } } },
  }, 40)
  local want = {
    'ERROR [rule-of-two] Agent a breaks the',
    '    Rule of Two: it reads untrusted',
    '    input (read_email) and can act',
    '    outward (send_http)',
    '  tools.py:37: sends model-chosen data',
    '      with requests.post [rules]',
  }
  assert(vim.deep_equal(lines, want), 'path_lines:\n' .. table.concat(lines, '\n'))

  -- The commands exist without setup() (plugin/acg.lua).
  assert(vim.fn.exists(':AcgRescan') == 2 and vim.fn.exists(':AcgGraph') == 2, 'commands defined')
  vim.fn.delete(tmp, 'rf')
end

local ok, err = pcall(main)
if ok then
  log('PASS')
  vim.cmd('qall!')
else
  log('FAIL: ' .. tostring(err))
  vim.cmd('cquit 1')
end
