1;
% The Test FMU BouncingBall (h = 1, v = 0, g = 9.81, e = 0.7, V_MIN = 0.1)
% with Octave's ode45 / ode15s and an event function; rows every 0.01 s
% plus both limits at each impact; written with csvwrite (no header) and
% with a header line.  usage: octave tools/outside_real_ball.m SOLVER RELTOL ABSTOL OUT HEADER
function [value, isterminal, direction] = hit(t, y)
  value = y(1); isterminal = 1; direction = -1;
end
args = argv();
solver = args{1}; rtol = str2double(args{2}); atol = str2double(args{3});
out = args{4}; header = str2double(args{5});
g = 9.81; e = 0.7; vmin = 0.1; tend = 3;
opts = odeset('RelTol', rtol, 'AbsTol', atol, 'Events', @hit);
f = @(t, y) [y(2); -g];
t0 = 0; y0 = [1; 0]; rows = [];
while t0 < tend
  grid = [t0, (ceil(t0 * 100 + 1e-9) : floor(tend * 100)) / 100];
  grid = unique([grid, tend]);
  if numel(grid) < 3
    grid = [t0, (t0 + tend) / 2, tend];
  end
  if strcmp(solver, 'ode45')
    [t, y, te, ye] = ode45(f, grid, y0, opts);
  else
    [t, y, te, ye] = ode15s(f, grid, y0, opts);
  end
  if t0 > 0
    t = t(2:end); y = y(2:end, :);   % the right limit is already written
  end
  if isempty(te)
    rows = [rows; t, y];
    break;
  end
  keep = t < te(end);
  rows = [rows; t(keep), y(keep, :); te(end), ye(end, :)];
  v = abs(ye(end, 2) * e);
  if v < vmin
    rows = [rows; te(end), 0, 0];
    tt = unique([(ceil(te(end) * 100 + 1e-9) : floor(tend * 100)) / 100, tend])';
    rows = [rows; tt, zeros(numel(tt), 2)];
    break;
  end
  t0 = te(end); y0 = [0; v];
  rows = [rows; t0, 0, v];
end
if header
  fid = fopen(out, 'w');
  fprintf(fid, 'time,h,v\n');
  fprintf(fid, '%.17g,%.17g,%.17g\n', rows');
  fclose(fid);
else
  csvwrite(out, rows);
end
