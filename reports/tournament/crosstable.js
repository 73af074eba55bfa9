// Crosstable cells are replay buttons too (the viewer wires every button.replay); this only marks the chosen cell.
(function () {
  'use strict';
  Array.prototype.forEach.call(document.querySelectorAll('button.cell'), function (button) {
    button.addEventListener('click', function () {
      Array.prototype.forEach.call(document.querySelectorAll('button.cell.chosen'), function (other) { other.classList.remove('chosen'); });
      button.classList.add('chosen');
    });
  });
})();
