-- The help file as a user gets it: run.sh installs the plugin as a native
-- package and generates its tags with :helptags (which fails on a duplicate
-- tag); here `:help acg` and every tag the file defines must open acg.txt
-- there, and every |acg…| link in it must resolve. Ends with :qall! or :cquit.

local function log(msg)
  io.stderr:write(msg .. '\n')
end

local function main()
  local want = vim.fn.resolve((assert(os.getenv('ACG_TEST_DOC'), 'ACG_TEST_DOC')))
  local function opens(subject)
    vim.cmd('silent! helpclose')
    local ok, err = pcall(vim.cmd, 'help ' .. subject)
    assert(ok, (':help %s failed: %s'):format(subject, tostring(err)))
    return vim.fn.resolve(vim.api.nvim_buf_get_name(0))
  end
  local got = opens('acg')
  assert(got == want, (':help acg opened %s, want %s'):format(got, want))
  -- The tags file :helptags wrote holds every *tag* of acg.txt.
  local tags = {}
  for _, line in ipairs(vim.fn.readfile(vim.fn.fnamemodify(want, ':h') .. '/tags')) do
    tags[#tags + 1] = vim.split(line, '\t')[1]
  end
  local defined, links = {}, {}
  for _, line in ipairs(vim.fn.readfile(want)) do
    for tag in line:gmatch('%*([^%s*|]+)%*') do
      defined[#defined + 1] = tag
    end
    for link in line:gmatch('|([^%s|]+)|') do
      links[#links + 1] = link
    end
  end
  assert(#defined >= 10, 'acg.txt defines ' .. #defined .. ' tags')
  assert(#tags == #defined, ('tags file has %d entries, acg.txt defines %d'):format(#tags, #defined))
  for _, tag in ipairs(defined) do
    got = opens(vim.fn.escape(tag, ' '))
    assert(got == want, (':help %s opened %s, want %s'):format(tag, got, want))
  end
  for _, tag in ipairs({ 'acg-lazy.nvim', 'acg-packer', 'acg-vim-plug', 'acg-packages' }) do
    assert(vim.tbl_contains(defined, tag), 'installation section for ' .. tag)
  end
  -- Links into acg.txt must resolve there; the others name Neovim's own
  -- help, which differs between versions (vim.lsp.config() is 0.11+).
  local own = 0
  for _, link in ipairs(links) do
    if link:match('^acg') then
      got = opens(link)
      assert(got == want, (':help %s opened %s, want %s'):format(link, got, want))
      own = own + 1
    end
  end
  log(('help: :help acg and %d tags open %s, %d links into it resolve'):format(#defined, want, own))
end

local ok, err = xpcall(main, debug.traceback)
if ok then
  vim.cmd('qall!')
else
  log(err)
  vim.cmd('cquit')
end
